"use client";
// Errors in the root layout itself: this replaces it, so it brings its own document and styles (the
// system font rather than Geist: next/font would tie this last-resort page to the build's font pipeline).
import { ErrorNotice } from "@/components/errors/error-notice";
import "./globals.css";

export default function GlobalError({ error, retry }: { error: Error & { digest?: string }; retry: () => void }) {
  return (
    <html lang="en">
      <body className="min-h-screen font-sans text-sm">
        <title>Something went wrong · Rx Transfer</title>
        <ErrorNotice error={error} retry={retry} standalone />
      </body>
    </html>
  );
}
