// Every relative link and #anchor in the README, the docs by audience, the bench notes, SECURITY.md and
// CODE_STYLE.md points at a file or heading that exists (GitHub's heading ids): a page moved or a heading
// renamed fails here, not in a reader's browser.
import { mkdtempSync, readdirSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { brokenLinks, headingIds, headingSlug, markdownLinks } from "@/tests/support/markdown-links";

const ROOT = path.resolve(import.meta.dirname, "../..");

function markdownUnder(folder: string, recursive: boolean): string[] {
  return readdirSync(path.join(ROOT, folder), { withFileTypes: true, recursive })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".md"))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)))
    .sort();
}

const FILES = [
  "README.md",
  "SECURITY.md",
  "CODE_STYLE.md",
  ...markdownUnder("docs", true),
  ...markdownUnder("bench", false),
];

describe("links in the documentation", () => {
  it("reads the README, every page under docs/ and the bench notes", () => {
    expect(FILES).toContain("docs/operators/deploy.md");
    expect(FILES).toContain("bench/README.md");
    expect(FILES.length).toBeGreaterThan(20);
  });

  it.each(FILES)("%s: every relative link and anchor points at something", (file) => {
    expect(brokenLinks(ROOT, file)).toEqual([]);
  });
});

describe("the link check itself", () => {
  const scratch = mkdtempSync(path.join(tmpdir(), "docs-links-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("makes GitHub's heading ids", () => {
    expect(headingSlug("Keys, audit integrity and the database role")).toBe(
      "keys-audit-integrity-and-the-database-role",
    );
    expect(headingSlug("How `npm start` serves the API")).toBe("how-npm-start-serves-the-api");
    expect(headingSlug("One public address: `PUBLIC_URL`")).toBe("one-public-address-public_url");
    expect(headingSlug("1. Install and build")).toBe("1-install-and-build");
    expect(headingSlug("Controlled substances: first fills, lawful refills")).toBe(
      "controlled-substances-first-fills-lawful-refills",
    );
    expect(headingSlug("The ≥ 3× aim — met")).toBe("the--3-aim--met");
    expect([...headingIds("# A\n\n## Notes\n\n```\n# not a heading\n```\n\n## Notes\n")]).toEqual([
      "a",
      "notes",
      "notes-1",
    ]);
  });

  it("finds links in prose, not in code", () => {
    const links = markdownLinks(
      "See [a](a.md#x) and `[b](b.md)`.\n\n```\n[c](c.md)\n```\n\n[d]: d.md\n![i](img.png)\n",
    );
    expect(links.map((link) => link.target)).toEqual(["a.md#x", "d.md", "img.png"]);
  });

  it("reports a missing file, a missing heading and a link out of the tree, and passes good ones", () => {
    mkdirSync(path.join(scratch, "docs"));
    writeFileSync(path.join(scratch, "docs", "page.md"), "# Page\n\n## A section\n");
    writeFileSync(
      path.join(scratch, "README.md"),
      [
        "# Index",
        "[ok](docs/page.md) [ok](docs/page.md#a-section) [ok](#index) [ok](https://example.com/x.md) [ok](docs/)",
        "[gone](docs/nowhere.md)",
        "[no heading](docs/page.md#b-section)",
        "[no heading here](#nothing)",
        "[out](../outside.md)",
      ].join("\n"),
    );
    expect(brokenLinks(scratch, "README.md").map(({ line, target, reason }) => ({ line, target, reason }))).toEqual([
      { line: 3, target: "docs/nowhere.md", reason: "no such file" },
      { line: 4, target: "docs/page.md#b-section", reason: "no heading #b-section" },
      { line: 5, target: "#nothing", reason: "no heading #nothing" },
      { line: 6, target: "../outside.md", reason: "outside the repository" },
    ]);
  });
});
