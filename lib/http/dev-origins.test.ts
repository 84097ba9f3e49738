import { describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";
import { devAllowedHosts, devUrls } from "@/lib/http/dev-origins";

describe("hosts allowed to open the development server", () => {
  it("are the loopback addresses and DEV_ALLOWED_ORIGINS, which takes host names or addresses", () => {
    const env = parseEnv({ DEV_ALLOWED_ORIGINS: " 192.168.1.20, DevBox.local,*.tunnel.example,[fd00::1] " });
    expect(env.DEV_ALLOWED_ORIGINS).toEqual(["192.168.1.20", "devbox.local", "*.tunnel.example", "[fd00::1]"]);
    expect(devAllowedHosts(env.DEV_ALLOWED_ORIGINS)).toEqual([
      "localhost",
      "127.0.0.1",
      "[::1]",
      "192.168.1.20",
      "devbox.local",
      "*.tunnel.example",
      "[fd00::1]",
    ]);
    expect(devAllowedHosts(parseEnv({}).DEV_ALLOWED_ORIGINS)).toEqual(["localhost", "127.0.0.1", "[::1]"]);
  });

  it.each(["http://192.168.1.20", "devbox.local:3000", "devbox.local/app"])(
    "refuse %s with a message naming the variable",
    (value) => {
      expect(() => parseEnv({ DEV_ALLOWED_ORIGINS: value })).toThrow(/DEV_ALLOWED_ORIGINS: must be host names/);
    },
  );

  it("print the addresses one can open, not wildcard patterns", () => {
    expect(devUrls(3000, ["devbox.local", "*.tunnel.example"])).toEqual([
      "http://localhost:3000",
      "http://127.0.0.1:3000",
      "http://[::1]:3000",
      "http://devbox.local:3000",
    ]);
  });
});
