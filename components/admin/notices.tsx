// Messages of the admin screens: a polite live region for what succeeded (present before it has text, so
// screen readers announce the change) and an alert for what failed.
export function StatusMessage({ children, className = "" }: { children?: React.ReactNode; className?: string }) {
  return (
    <p role="status" className={`text-emerald-800 empty:hidden ${className}`}>
      {children}
    </p>
  );
}

export function ErrorMessage({ children, className = "" }: { children?: React.ReactNode; className?: string }) {
  if (!children) return null;
  return (
    <p role="alert" className={`rounded border border-red-300 bg-red-50 px-2 py-1 text-red-900 ${className}`}>
      {children}
    </p>
  );
}
