"use client";
// Single-key shortcuts for the page (j, k, /, a, r, ?…). Ignored while typing in a field, while a dialog
// is open, and with Ctrl / Meta / Alt held (those belong to the browser and assistive technology).
import { useEffect, useRef } from "react";

/** A handler returns false when the key is not for it after all (the browser then does its default). */
export type ShortcutMap = Record<string, (event: KeyboardEvent) => unknown>;

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === "TEXTAREA" || tag === "SELECT") return true;
  if (tag === "INPUT") {
    const type = (target as HTMLInputElement).type;
    return !["checkbox", "radio", "button", "submit", "reset"].includes(type);
  }
  return false;
}

export function useShortcuts(map: ShortcutMap, enabled = true): void {
  const current = useRef(map);
  useEffect(() => {
    current.current = map;
  });
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTyping(event.target)) return;
      if (document.querySelector("dialog[open]")) return;
      const handler = current.current[event.key];
      if (handler && handler(event) !== false) event.preventDefault();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [enabled]);
}
