// What the container test asks of the host: a free port, an HTTP status, and a wait that gives up.
import { createServer } from "node:net";
import { interruptedBy, say } from "./report";

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** The status of a GET, or 0 when nothing answered in 3 s. */
export async function get(url: string): Promise<number> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(3000) });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
}

export async function waitFor(what: string, seconds: number, probe: () => Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline && !interruptedBy()) {
    if (await probe()) return true;
    await new Promise((r) => setTimeout(r, 1000));
  }
  say(`gave up waiting for ${what} after ${seconds}s`);
  return false;
}
