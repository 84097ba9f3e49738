// Runs in the browser before the app hydrates. zod compiles object parsers with `new Function` unless told
// not to, and its first parse probes for it: the Content-Security-Policy (no 'unsafe-eval') refuses the probe
// and the browser reports a violation. The interpreted parsers are fast enough for the dashboard's forms.
import { z } from "zod";

z.config({ jitless: true });
