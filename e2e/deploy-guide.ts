// docs/operators/deploy.md read as the production rehearsal follows it: its numbered steps (`## N. Title`)
// and the code blocks in each, in order. The rehearsal runs these texts, so a command changed in the guide is
// the command the rehearsal runs.
import { readFileSync } from "node:fs";
import path from "node:path";

export const GUIDE_PATH = path.resolve(import.meta.dirname, "../docs/operators/deploy.md");

export type GuideBlock = { lang: string; text: string };
export type GuideStep = { n: number; title: string; text: string; blocks: GuideBlock[] };

export function readGuide(): Map<number, GuideStep> {
  const steps = new Map<number, GuideStep>();
  const sections = readFileSync(GUIDE_PATH, "utf8").split(/^## /m).slice(1);
  for (const section of sections) {
    const heading = /^(\d+)\. (.+)$/m.exec(section.split("\n")[0] ?? "");
    if (!heading) continue;
    const blocks: GuideBlock[] = [];
    for (const m of section.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm))
      blocks.push({ lang: m[1] ?? "", text: m[2] ?? "" });
    steps.set(Number(heading[1]), { n: Number(heading[1]), title: heading[2]!.trim(), text: section, blocks });
  }
  return steps;
}

/** The step, or an error naming what the rehearsal expected of the guide. */
export function guideStep(steps: Map<number, GuideStep>, n: number): GuideStep {
  const step = steps.get(n);
  if (!step) throw new Error(`deploy.md has no step ${n} ("## ${n}. …"): the rehearsal follows its numbered steps`);
  return step;
}

/** The step's `index`-th code block in `lang` (sh, nginx, ini …). */
export function guideBlock(step: GuideStep, lang: string, index = 0): string {
  const block = step.blocks.filter((b) => b.lang === lang)[index];
  if (!block) throw new Error(`deploy.md step ${step.n} (${step.title}) has no ${lang} block #${index + 1}`);
  return block.text;
}

/** The first match of `pattern`'s group 1 in the step's text, or an error saying what was looked for. */
export function guideValue(step: GuideStep, pattern: RegExp, what: string): string {
  const m = pattern.exec(step.text);
  if (!m?.[1]) throw new Error(`deploy.md step ${step.n} (${step.title}) no longer shows ${what} (${pattern})`);
  return m[1];
}
