// The single-instance soak's chaos: SIGKILLs of the server spread over the load, each at a random moment of
// its slot, and the callback receiver's outage (refusing, then 500/503, then back), recorded on a timeline.
import { randomInt } from "node:crypto";
import type { SoakReceiver } from "./receiver";
import type { SoakServer } from "./server";
import { say, sleep } from "./util";

export type KillRecord = { atSecond: number; restartSeconds: number };

export type Timeline = {
  /** Wall-clock start of the load; the other times are seconds after it. */
  loadStartedAt: string;
  kills: KillRecord[];
  receiver: { downAt: number; failingAt: number; upAt: number } | null;
};

export function startSoakChaos(o: {
  settings: { loadSeconds: number; kills: number; receiverDown: number; receiverFailing: number };
  server: SoakServer;
  receiver: SoakReceiver;
  timeline: Timeline;
  elapsed: () => number;
}): { killer: Promise<void>; outage: Promise<void> } {
  const { settings, server, receiver, timeline, elapsed } = o;
  // Chaos: kills spread over the load, each at a random moment of its slot; the receiver's outage.
  const load = settings.loadSeconds;
  const killer = (async () => {
    const first = 0.08 * load;
    const last = load - 10;
    const slot = (last - first) / settings.kills;
    for (let i = 0; i < settings.kills; i++) {
      const at = first + slot * i + Math.random() * slot * 0.8;
      while (elapsed() < at || server.state() !== "up") await sleep(100);
      const atSecond = elapsed();
      await server.kill();
      say(`  [${atSecond.toFixed(0).padStart(4)} s] ✗ server SIGKILLed (kill ${i + 1}/${settings.kills})`);
      await sleep(randomInt(0, 2_000));
      const restartSeconds = await server.start();
      timeline.kills.push({
        atSecond: Math.round(atSecond * 10) / 10,
        restartSeconds: Math.round(restartSeconds * 10) / 10,
      });
      say(`  [${elapsed().toFixed(0).padStart(4)} s] ✓ server back after ${(elapsed() - atSecond).toFixed(1)} s`);
    }
  })();
  const outage = (async () => {
    // It comes back late in the load, so that callbacks are still backing off when the load stops.
    const upTarget = load * (0.85 + Math.random() * 0.13);
    const downAt = Math.max(2, upTarget - settings.receiverDown - settings.receiverFailing);
    while (elapsed() < downAt) await sleep(100);
    await receiver.setMode("down");
    say(`  [${elapsed().toFixed(0).padStart(4)} s] ✗ receiver down (connections refused)`);
    const failingAt = elapsed() + settings.receiverDown;
    while (elapsed() < failingAt) await sleep(100);
    await receiver.setMode("failing");
    say(`  [${elapsed().toFixed(0).padStart(4)} s] ~ receiver answering 500/503`);
    const upAt = elapsed() + settings.receiverFailing;
    while (elapsed() < upAt) await sleep(100);
    await receiver.setMode("up");
    say(`  [${elapsed().toFixed(0).padStart(4)} s] ✓ receiver up`);
    timeline.receiver = { downAt: Math.round(downAt), failingAt: Math.round(failingAt), upAt: Math.round(upAt) };
  })();
  return { killer, outage };
}
