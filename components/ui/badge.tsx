type Tone = "neutral" | "red" | "amber" | "green" | "blue" | "violet" | "solidRed";

const TONES: Record<Tone, string> = {
  neutral: "border-slate-300 bg-slate-100 text-slate-700",
  red: "border-red-300 bg-red-50 text-red-800",
  amber: "border-amber-300 bg-amber-50 text-amber-900",
  green: "border-emerald-300 bg-emerald-50 text-emerald-800",
  blue: "border-sky-300 bg-sky-50 text-sky-800",
  violet: "border-violet-300 bg-violet-50 text-violet-800",
  solidRed: "border-red-700 bg-red-700 text-white",
};

export function Badge({
  tone = "neutral",
  children,
  title,
}: {
  tone?: Tone;
  children: React.ReactNode;
  title?: string;
}) {
  return (
    <span
      title={title}
      className={`inline-flex items-center whitespace-nowrap rounded border px-1.5 py-px text-xs font-medium ${TONES[tone]}`}
    >
      {children}
    </span>
  );
}
