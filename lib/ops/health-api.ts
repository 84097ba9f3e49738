// The probes' HTTP answers, shared by npm start's fast path (lib/http/production-server.ts) and the Next
// routes app/healthz and app/readyz (npm run dev, next start). Liveness touches nothing; readiness runs its
// checks. Both answer JSON and are never cached (JSON_HEADERS).
import { jsonAnswer, type ApiAnswer } from "@/lib/http/api-exchange";
import { checkReadiness } from "@/lib/ops/readiness";

export function handleHealthz(): ApiAnswer {
  return jsonAnswer({ status: "ok" }, 200);
}

export async function handleReadyz(): Promise<ApiAnswer> {
  const readiness = await checkReadiness();
  return jsonAnswer(
    { status: readiness.ready ? "ready" : "not ready", checks: readiness.checks },
    readiness.ready ? 200 : 503,
    readiness.ready ? {} : { "retry-after": "5" },
  );
}

/** A probe path and method this module answers, or null. HEAD is answered like GET (the writer drops the body). */
export function probeFor(method: string | undefined, url: string | undefined): "healthz" | "readyz" | null {
  if ((method !== "GET" && method !== "HEAD") || !url) return null;
  const query = url.indexOf("?");
  const path = query === -1 ? url : url.slice(0, query);
  if (path === "/healthz") return "healthz";
  if (path === "/readyz") return "readyz";
  return null;
}
