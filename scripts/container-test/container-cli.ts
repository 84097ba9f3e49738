// The service's CLI run inside the web container, with --json: its exit code, its last line parsed, and the
// end of its output for a failure's detail.
import { containerOf, podman, tail } from "./podman";

export async function cli(
  args: string[],
): Promise<{ code: number; json: Record<string, unknown> | null; out: string }> {
  const r = await podman(["exec", containerOf("web"), "npm", "run", "-s", "cli", "--", ...args, "--json"]);
  let json: Record<string, unknown> | null = null;
  try {
    json = JSON.parse(r.stdout.trim().split("\n").at(-1) ?? "") as Record<string, unknown>;
  } catch {
    json = null;
  }
  return { code: r.code, json, out: tail(r) };
}
