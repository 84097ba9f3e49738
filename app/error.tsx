"use client";
// Errors below the root layout (the dashboard's own frame included): the app's look, a retry, the ways back.
import { ErrorNotice } from "@/components/errors/error-notice";

export default function RootError({ error, retry }: { error: Error & { digest?: string }; retry: () => void }) {
  return <ErrorNotice error={error} retry={retry} standalone />;
}
