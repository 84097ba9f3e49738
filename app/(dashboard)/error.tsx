"use client";
// Errors in a dashboard page: shown inside the dashboard's frame, so its header and navigation stay usable.
import { ErrorNotice } from "@/components/errors/error-notice";

export default function DashboardError({ error, retry }: { error: Error & { digest?: string }; retry: () => void }) {
  return <ErrorNotice error={error} retry={retry} standalone={false} />;
}
