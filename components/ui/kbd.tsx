export function Kbd({ children }: { children: React.ReactNode }) {
  return (
    <kbd className="rounded border border-slate-300 bg-white px-1 font-mono text-[11px] leading-4 text-slate-700 shadow-[0_1px_0_var(--color-slate-300)]">
      {children}
    </kbd>
  );
}
