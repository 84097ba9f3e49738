// Starting a node:http server as a promise: resolved once it listens, rejected when the port is taken (or any
// other listen error), instead of an 'error' event nobody hears.
import type { Server } from "node:http";

export function listen(server: Server, port: number, host?: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    const ready = () => {
      server.off("error", reject);
      resolve();
    };
    if (host) server.listen(port, host, ready);
    else server.listen(port, ready);
  });
}
