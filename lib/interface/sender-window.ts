// The sending pharmacy's deadline: it gives up on a transfer still RECEIVED this long after sending it
// (the interface's settled timing). The queue counts down to it, the review checks flag it, and the callback
// retry schedule is front-loaded to land inside it. Client-safe: a plain number.

export const SENDER_WINDOW_MS = 4 * 3_600_000;
