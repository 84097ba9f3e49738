// global-error.tsx replaces the root layout when that fails, which no honest request can make happen here
// (the root layout reads no data), so it is rendered directly.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import GlobalError from "@/app/global-error";

describe("global error page", () => {
  it("is a whole document saying what happened, with the reference to quote and the ways back", () => {
    const error = Object.assign(new Error("hidden from the browser"), { digest: "1234567890" });
    const html = renderToStaticMarkup(createElement(GlobalError, { error, retry: () => {} }));
    expect(html).toMatch(/^<html lang="en">.*<body[^>]*>/);
    expect(html).toContain("<title>Something went wrong · Rx Transfer</title>");
    expect(html).toMatch(/<main id="main"[^>]*>.*<h1[^>]*>Something went wrong<\/h1>/);
    expect(html).toContain("1234567890");
    expect(html).not.toContain("hidden from the browser");
    expect(html).toMatch(/<button[^>]*>Try again<\/button>/);
    expect(html).toContain('<a href="/transfers"');
    expect(html).toContain('<a href="/login"');
  });
});
