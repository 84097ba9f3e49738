// Relative links and #anchors in the repository's Markdown, read as GitHub renders them, so that a test can
// refuse one that points nowhere. GitHub's heading ids: the heading's text without its Markdown (code
// backticks, emphasis, link targets), lower-cased, every character that is not a letter, digit, space,
// hyphen or underscore dropped, spaces turned into hyphens; a repeated id gets -1, -2, … in order.
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

export type MarkdownLink = { line: number; target: string };
export type BrokenLink = { file: string; line: number; target: string; reason: string };

/** The text of a Markdown heading as GitHub turns it into an id. */
export function headingSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .replace(/[`*]/g, "")
    .replace(/(^|\s)_+|_+(\s|$)/g, "$1$2");
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, "")
    .replace(/ /g, "-");
}

/** The lines outside fenced code blocks, with their 1-based numbers. */
function proseLines(markdown: string): { line: number; text: string }[] {
  const lines: { line: number; text: string }[] = [];
  let fence: string | null = null;
  markdown.split("\n").forEach((text, index) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(text)?.[1];
    if (marker && (fence === null || marker.startsWith(fence))) {
      fence = fence === null ? marker : null;
      return;
    }
    if (fence === null) lines.push({ line: index + 1, text });
  });
  return lines;
}

/** The ids of a document's headings, as GitHub makes them (repeats numbered). */
export function headingIds(markdown: string): Set<string> {
  const ids = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text } of proseLines(markdown)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(text)?.[1];
    if (heading === undefined) continue;
    const slug = headingSlug(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    ids.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return ids;
}

/** Every link target in the prose (inline links, images, reference definitions), code spans left out. */
export function markdownLinks(markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  for (const { line, text } of proseLines(markdown)) {
    const prose = text.replace(/(`+)[^`]*?\1/g, "");
    for (const match of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
      if (match[1]) links.push({ line, target: match[1] });
    const definition = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(prose);
    if (definition?.[1]) links.push({ line, target: definition[1] });
  }
  return links;
}

/** Whether a link leaves the repository (a scheme, a protocol-relative or a site-absolute address). */
function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("/");
}

/** The links of one Markdown file (path relative to root) whose file or heading does not exist. */
export function brokenLinks(root: string, file: string): BrokenLink[] {
  const source = path.join(root, file);
  const markdown = readFileSync(source, "utf8");
  const broken: BrokenLink[] = [];
  for (const { line, target } of markdownLinks(markdown)) {
    if (isExternal(target)) continue;
    const [rawPath, anchor] = target.split("#", 2) as [string, string | undefined];
    const linkedPath = decodeURIComponent(rawPath);
    const resolved = linkedPath === "" ? source : path.resolve(path.dirname(source), linkedPath);
    if (!resolved.startsWith(root)) {
      broken.push({ file, line, target, reason: "outside the repository" });
      continue;
    }
    if (!existsSync(resolved)) {
      broken.push({ file, line, target, reason: "no such file" });
      continue;
    }
    if (anchor === undefined || anchor === "") continue;
    if (statSync(resolved).isDirectory() || !resolved.endsWith(".md")) {
      broken.push({ file, line, target, reason: "an anchor into something that is not a Markdown file" });
      continue;
    }
    const ids = resolved === source ? headingIds(markdown) : headingIds(readFileSync(resolved, "utf8"));
    if (!ids.has(decodeURIComponent(anchor))) broken.push({ file, line, target, reason: `no heading #${anchor}` });
  }
  return broken;
}
