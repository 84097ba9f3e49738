// Chromium for the rehearsal's https host names: they resolve to 127.0.0.1, and the test CA and the leaf
// certificates it issued are trusted by their keys, as a company's own CA would be.
import { readFileSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser } from "@playwright/test";
import { CHROMIUM_ARGS, findChromium } from "../../../tests/support/chromium";
import { spkiHashOf } from "../../../tests/support/test-ca";
import { APP_HOST, IDP_HOST, type RehearsalDeployment } from "./deployment";

/** The deployment's browser, launched on first use. */
export async function rehearsalBrowser(deployment: RehearsalDeployment): Promise<Browser> {
  if (deployment.browser) return deployment.browser;
  const executablePath = findChromium();
  if (!executablePath) throw new Error("no Chromium (tests/support/chromium.ts)");
  const leafHashes = ["rx", "idp"].map((name) =>
    spkiHashOf(readFileSync(path.join(deployment.dir, "tls", `${name}.crt`), "utf8")),
  );
  deployment.browser = await chromium.launch({
    executablePath,
    args: [
      ...CHROMIUM_ARGS.filter((a) => !a.startsWith("--host-resolver-rules=")),
      `--host-resolver-rules=MAP ${APP_HOST} 127.0.0.1, MAP ${IDP_HOST} 127.0.0.1, MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost`,
      // The test CA, trusted as a company's own CA would be: by its keys (Chromium's trust store is not ours to change).
      `--ignore-certificate-errors-spki-list=${[deployment.ca.spkiHash, ...leafHashes].join(",")}`,
    ],
  });
  return deployment.browser;
}
