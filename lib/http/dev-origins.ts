// Which hosts may open `npm run dev`. Next serves its development resources (the page's scripts, hot
// reload) only to pages opened at localhost or a host in `allowedDevOrigins`; a page opened anywhere else
// renders but never hydrates. The loopback addresses are always allowed; DEV_ALLOWED_ORIGINS adds others
// (another machine on the LAN, the name of a forwarded port). Production has no such check.

export const LOOPBACK_HOSTS: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];

/** `allowedDevOrigins` for next.config.ts. */
export function devAllowedHosts(extra: readonly string[]): string[] {
  return [...new Set([...LOOPBACK_HOSTS, ...extra])];
}

/** The addresses to print at start-up (a wildcard pattern is not an address one can open). */
export function devUrls(port: number, extra: readonly string[]): string[] {
  return devAllowedHosts(extra)
    .filter((host) => !host.includes("*"))
    .map((host) => `http://${host}:${port}`);
}
