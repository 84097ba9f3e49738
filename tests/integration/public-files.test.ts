// What a browser or crawler asks for without signing in: /robots.txt keeps crawlers out (served, not a
// redirect to the sign-in page) and /favicon.ico is an icon (not a 404 in every page's console); pages link it.
import { describe, expect, inject, it } from "vitest";

const baseUrl = inject("baseUrl");

describe("public files", () => {
  it("/robots.txt disallows everything, without signing in", async () => {
    const res = await fetch(`${baseUrl}/robots.txt`, { redirect: "manual" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    expect((await res.text()).trim()).toBe("User-Agent: *\nDisallow: /");
  });

  it("/favicon.ico is an icon, without signing in, and the sign-in page links it", async () => {
    const res = await fetch(`${baseUrl}/favicon.ico`, { redirect: "manual" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/x-icon");
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 4)]).toEqual([0, 0, 1, 0]); // ICO header: reserved 0, type 1 (icon)
    const login = await (await fetch(`${baseUrl}/login`)).text();
    expect(login).toMatch(/<link rel="icon" href="\/favicon\.ico[^"]*"/);
  });
});
