// The page at the end of a path that leads nowhere (nothing at this address, an error): what happened, and
// the ways back. Plain links, not client navigation: after an error a full load is the surer way out.
import type { ReactNode } from "react";

export type WayBack = { href: string; label: string };

export const QUEUE_AND_SIGN_IN: readonly WayBack[] = [
  { href: "/transfers", label: "Go to the transfer queue" },
  { href: "/login", label: "Sign in" },
];

type Props = {
  title: string;
  children: ReactNode;
  ways: readonly WayBack[];
  /** Outside the dashboard's frame the page is its own main landmark; inside, the frame has one already. */
  standalone: boolean;
  /** More to do than follow a link: a retry button, a search. */
  actions?: ReactNode;
};

export function DeadEnd({ title, children, ways, standalone, actions }: Props) {
  const body = (
    <div className="w-full max-w-md rounded-md border border-slate-200 bg-white p-6 shadow-sm">
      <h1 id="dead-end-title" className="text-lg font-semibold">
        {title}
      </h1>
      <div className="mt-2 space-y-2 text-slate-700">{children}</div>
      {actions && <div className="mt-4">{actions}</div>}
      <nav aria-label="Ways back" className="mt-4">
        <ul className="space-y-1">
          {ways.map((way) => (
            <li key={way.href}>
              <a href={way.href} className="font-medium text-blue-700 underline">
                {way.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
  if (standalone) {
    return (
      <main id="main" className="flex min-h-screen items-center justify-center px-4">
        {body}
      </main>
    );
  }
  return (
    <section aria-labelledby="dead-end-title" className="flex justify-center py-10">
      {body}
    </section>
  );
}
