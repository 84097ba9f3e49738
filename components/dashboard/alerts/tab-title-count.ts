"use client";
// "(3) Transfer queue": the count of alerting transfers in front of the tab title, kept there when Next
// changes the title on navigation (a MutationObserver on <head>), removed when the count is 0.
import { useEffect } from "react";

const PREFIX = /^\(\d+\+?\) /;

export function useTabTitleCount(count: number, capped: boolean): void {
  useEffect(() => {
    const apply = () => {
      const base = document.title.replace(PREFIX, "");
      const wanted = count > 0 ? `(${count}${capped ? "+" : ""}) ${base}` : base;
      if (document.title !== wanted) document.title = wanted;
    };
    apply();
    const observer = new MutationObserver(apply);
    observer.observe(document.head, { subtree: true, childList: true, characterData: true });
    return () => {
      observer.disconnect();
      document.title = document.title.replace(PREFIX, "");
    };
  }, [count, capped]);
}
