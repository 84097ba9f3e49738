// A CSV export as an HTTP download: the lines of an async generator streamed as they are produced (an export
// may hold years of records), with the row count in a header. A failure mid-stream is logged and ends the
// stream with an error, so the client sees a broken download rather than a short file that looks complete.
import { errorFields, log } from "@/lib/log";

export function csvDownload(opts: {
  lines: AsyncGenerator<string>;
  filename: string;
  count: number;
  what: string;
  requestId: string;
}): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await opts.lines.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      } catch (err) {
        log("error", `${opts.what} failed`, { requestId: opts.requestId, ...errorFields(err) });
        controller.error(err);
      }
    },
    async cancel() {
      await opts.lines.return(undefined);
    },
  });
  return new Response(body, {
    status: 200,
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${opts.filename}"`,
      "cache-control": "no-store",
      "x-record-count": String(opts.count),
    },
  });
}
