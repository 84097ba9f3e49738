"use client";
import { useShortcuts } from "@/components/dashboard/use-shortcuts";
import { Button } from "@/components/ui/button";

export function PrintButton() {
  useShortcuts({ p: () => window.print() });
  return (
    <Button variant="primary" onClick={() => window.print()} aria-keyshortcuts="p">
      Print record
    </Button>
  );
}
