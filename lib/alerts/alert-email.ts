// The alert email's text. No PHI: the count, the age and a link to the transfer (its referenceID is an
// opaque id), never the patient, date of birth, drug or sender.
export type AlertEmailFacts = { count: number; thresholdMinutes: number; ageMinutes: number; link: string };

export function formatMinutes(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h === 0 ? `${m} min` : m === 0 ? `${h} h` : `${h} h ${String(m).padStart(2, "0")} min`;
}

export function alertEmail(facts: AlertEmailFacts): { subject: string; text: string } {
  const threshold = formatMinutes(facts.thresholdMinutes);
  const left = 240 - facts.ageMinutes;
  const subject = `Transfer waiting ${threshold}: ${facts.count} pending past ${threshold}`;
  const text = [
    `A pending prescription transfer has waited ${formatMinutes(facts.ageMinutes)} (past the ${threshold} alert).`,
    left > 0
      ? `The sender treats it as failed after 4 hours: ${formatMinutes(left)} left.`
      : "It is past the sender's 4-hour window: the sender may already treat it as failed.",
    `${facts.count} pending transfer${facts.count === 1 ? " is" : "s are"} past ${threshold} now.`,
    "",
    `Open it: ${facts.link}`,
    "",
    "This message carries no patient information; sign in to see the transfer.",
  ].join("\n");
  return { subject, text };
}
