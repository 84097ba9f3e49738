// Buttons of the dashboard: calm colours, a visible focus ring, a name screen readers can announce.
import type { ButtonHTMLAttributes } from "react";

type Variant = "primary" | "secondary" | "danger" | "approve" | "ghost";

const VARIANTS: Record<Variant, string> = {
  primary: "border-slate-800 bg-slate-800 text-white hover:bg-slate-700",
  secondary: "border-slate-300 bg-white text-slate-800 hover:bg-slate-100",
  danger: "border-red-700 bg-red-700 text-white hover:bg-red-800",
  approve: "border-emerald-700 bg-emerald-700 text-white hover:bg-emerald-800",
  ghost: "border-transparent bg-transparent text-slate-700 hover:bg-slate-100",
};

export function buttonClass(variant: Variant = "secondary", extra = ""): string {
  return `inline-flex items-center gap-1.5 rounded border px-2.5 py-1 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 disabled:cursor-not-allowed disabled:opacity-50 ${VARIANTS[variant]} ${extra}`;
}

export function Button({
  variant = "secondary",
  className = "",
  type = "button",
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant }) {
  return <button type={type} className={buttonClass(variant, className)} {...props} />;
}
