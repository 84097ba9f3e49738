// Cumulative layout shift as Chromium's own PerformanceObserver reports it: 'layout-shift' entries, those
// right after input (hadRecentInput) left out, grouped into session windows (a gap over 1 s or a window
// over 5 s starts a new one), the largest window's sum. Installed before the page's scripts (an init
// script), it also sees the shifts of the first paint (buffered). The browser tests and the bench read it.

/** An init script (a string: it runs in the page as written). `window.__cls()` answers the CLS so far. */
export const LAYOUT_SHIFT_SCRIPT = `(() => {
  let windows = [];
  let current = null;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.hadRecentInput) continue;
      if (!current || entry.startTime - current.last > 1000 || entry.startTime - current.first > 5000) {
        current = { first: entry.startTime, last: entry.startTime, sum: 0 };
        windows.push(current);
      }
      current.last = entry.startTime;
      current.sum += entry.value;
    }
  }).observe({ type: "layout-shift", buffered: true });
  window.__cls = () => windows.reduce((max, w) => Math.max(max, w.sum), 0);
})();`;

/** The page's CLS so far (the init script must have been added to the page or its context). */
export async function readLayoutShift(page: { evaluate<T>(fn: string): Promise<T> }): Promise<number> {
  return page.evaluate<number>("window.__cls ? window.__cls() : NaN");
}
