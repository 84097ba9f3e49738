// What an intake load child (load-child.ts, intake-even-child.ts) is told, as one JSON argument.

/** rate: requests per second for the whole run (paced); without it, as fast as the server answers. */
export type LoadArgs = {
  url: string;
  apiKey: string;
  template: string;
  connections: number;
  seconds: number;
  prefix: string;
  rate?: number;
};

export function readLoadArgs(): LoadArgs {
  return JSON.parse(process.argv[2]!) as LoadArgs;
}
