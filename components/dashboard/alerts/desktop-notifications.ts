"use client";
// Browser notifications of alerts (Notification API): a setting per user, kept in this browser (off by
// default), and asked of the browser only when the person turns it on. The text carries no patient data.
import { useEffect, useRef, useSyncExternalStore } from "react";

const storageKey = (userId: string) => `rx-alert-notifications:${userId}`;

const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener("storage", listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", listener);
  };
}

export function useNotificationSetting(userId: string): [boolean, (on: boolean) => Promise<string | null>] {
  const enabled = useSyncExternalStore(
    subscribe,
    () =>
      window.localStorage.getItem(storageKey(userId)) === "on" &&
      "Notification" in window &&
      Notification.permission === "granted",
    () => false,
  );
  const change = async (on: boolean): Promise<string | null> => {
    if (on) {
      if (!("Notification" in window)) return "This browser does not show notifications.";
      const permission = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
      if (permission !== "granted")
        return "The browser did not allow notifications for this site (see its site settings).";
    }
    window.localStorage.setItem(storageKey(userId), on ? "on" : "off");
    listeners.forEach((l) => l());
    return null;
  };
  return [enabled, change];
}

/** Notifies when the count of alerting transfers grows (not on every poll, not on the first one seen). */
export function useAlertNotifications(enabled: boolean, count: number | undefined, text: string): void {
  const last = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (count === undefined) return;
    const previous = last.current;
    last.current = count;
    if (!enabled || previous === undefined || count <= previous) return;
    try {
      new Notification("Rx Transfer: transfers waiting", { body: text, tag: "rx-transfer-alerts" });
    } catch {
      // A browser that refuses (e.g. permission revoked meanwhile): the banner still shows it.
    }
  }, [enabled, count, text]);
}
