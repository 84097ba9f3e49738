// A titled section of the partner page, named by its heading, and what a section hands up to the page when
// it has a new secret to show once (SecretPanel at the top of the page).
import type { ShownSecret } from "@/components/admin/secret-panel";

export type Shown = { title: string; secrets: ShownSecret[]; note?: React.ReactNode };

export function Section({
  id,
  title,
  children,
  description,
}: {
  id: string;
  title: string;
  children: React.ReactNode;
  description?: React.ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="space-y-2 rounded border border-slate-200 bg-white p-3">
      <h2 id={id} className="font-semibold">
        {title}
      </h2>
      {description && <p className="text-slate-600">{description}</p>}
      {children}
    </section>
  );
}
