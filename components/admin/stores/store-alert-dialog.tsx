"use client";
// A store's alert settings: the ages at which a pending transfer alerts, and its opening hours in
// its time zone (a crossing while closed alerts at the next opening; the sender's 4-hour clock does not stop).
import * as z from "zod";
import { apiFetch } from "@/components/admin/api";
import { ConfirmDialog } from "@/components/admin/confirm-dialog";
import { useStoresRefresh } from "@/components/admin/stores/store-row";
import { useConfirmedAction } from "@/components/admin/use-confirmed-action";
import { Field } from "@/components/ui/field";
import { useSchemaForm } from "@/components/forms/use-schema-form";
import {
  AlertThresholdsSchema,
  OpeningHoursSchema,
  StoreAlertSettingsSchema,
  WEEKDAYS,
  type OpeningHours,
  type StoreAlertSettings,
} from "@/lib/alerts/alert-settings";

const DAY_TEXT = /^\s*(\d{2}:\d{2})\s*-\s*(\d{2}:\d{2})\s*$/;

/** The dialog's fields as text: thresholds "120, 180", each day "08:00-20:00" or empty (closed). */
const AlertFormSchema = z
  .object({
    thresholds: z.string().transform((text, ctx) => {
      const parsed = AlertThresholdsSchema.safeParse(
        text
          .split(/[,\s]+/)
          .filter(Boolean)
          .map(Number),
      );
      if (parsed.success) return parsed.data;
      ctx.addIssue({ code: "custom", message: parsed.error.issues[0]?.message ?? "Enter minutes, e.g. 120, 180" });
      return z.NEVER;
    }),
    timeZone: StoreAlertSettingsSchema.shape.timeZone,
    alwaysOpen: z.boolean(),
    days: z.array(z.string().max(20)).length(7),
  })
  .transform((form, ctx): StoreAlertSettings => {
    if (form.alwaysOpen)
      return { alertThresholdsMinutes: form.thresholds, openingHours: null, timeZone: form.timeZone };
    const hours: OpeningHours = form.days.map((text, i) => {
      if (!text.trim()) return null;
      const m = DAY_TEXT.exec(text);
      if (!m) {
        ctx.addIssue({
          code: "custom",
          path: ["days", i],
          message: "HH:MM-HH:MM, e.g. 08:00-20:00, or empty for closed",
        });
        return null;
      }
      return { open: m[1]!, close: m[2]! };
    });
    const parsed = OpeningHoursSchema.safeParse(hours);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const day = typeof issue.path[0] === "number" ? issue.path[0] : 1;
        ctx.addIssue({ code: "custom", path: ["days", day], message: issue.message });
      }
      return z.NEVER;
    }
    return { alertThresholdsMinutes: form.thresholds, openingHours: parsed.data, timeZone: form.timeZone };
  });

export type StoreAlertRow = { storeId: string; name: string } & StoreAlertSettings;

export function formatOpeningHours(hours: OpeningHours | null): string {
  if (!hours) return "always open";
  return hours.map((d, i) => `${WEEKDAYS[i]!.slice(0, 3)} ${d ? `${d.open}-${d.close}` : "closed"}`).join(", ");
}

export function useStoreAlerts(onDone: (message: string) => void) {
  const refresh = useStoresRefresh();
  const form = useSchemaForm(AlertFormSchema, { defaultValues: alertFormValues(null) });
  const action = useConfirmedAction({
    form: { form, fields: ["thresholds", "timeZone"], valuesOf: (store: StoreAlertRow) => alertFormValues(store) },
    run: (store: StoreAlertRow, input) =>
      apiFetch(`/api/admin/stores/${store.storeId}/alerts`, { method: "PUT", body: input }),
    onDone: async (_data, store) => {
      onDone(`Alert settings of ${store.name} saved.`);
      await refresh();
    },
  });
  return { action, form };
}

function alertFormValues(store: StoreAlertRow | null): z.input<typeof AlertFormSchema> {
  return {
    thresholds: (store?.alertThresholdsMinutes ?? [120, 180]).join(", "),
    timeZone: store?.timeZone ?? "UTC",
    alwaysOpen: !store?.openingHours,
    days: (store?.openingHours ?? Array.from({ length: 7 }, () => null)).map((d) => (d ? `${d.open}-${d.close}` : "")),
  };
}

export function StoreAlertDialog({ change }: { change: ReturnType<typeof useStoreAlerts> }) {
  const { action, form } = change;
  const store = action.target;
  const errors = form.formState.errors;
  const alwaysOpen = form.watch("alwaysOpen");
  return (
    <ConfirmDialog
      {...action.dialog}
      title={`Alerts of ${store?.name ?? ""}`}
      description="Pharmacists are alerted when a pending transfer reaches these ages. The sender treats a transfer as failed after 4 hours, and that clock does not stop while the store is closed."
      confirmLabel="Save alert settings"
      pendingLabel="Saving…"
      variant="primary"
    >
      <Field
        label="Alert at these ages (minutes)"
        error={errors.thresholds?.message}
        hint="Ascending, under 240, separated by commas. Default: 120, 180."
      >
        {(f) => <input {...f} autoComplete="off" data-autofocus {...form.register("thresholds")} />}
      </Field>
      <Field label="Time zone" error={errors.timeZone?.message} hint="IANA name, e.g. America/Chicago.">
        {(f) => <input {...f} autoComplete="off" {...form.register("timeZone")} />}
      </Field>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" {...form.register("alwaysOpen")} /> Always open (alerts at any hour)
      </label>
      {!alwaysOpen && (
        <fieldset className="grid grid-cols-2 gap-2">
          <legend className="text-xs font-medium text-slate-700">Opening hours (HH:MM-HH:MM; empty: closed)</legend>
          {WEEKDAYS.map((day, i) => (
            <Field key={day} label={day} error={errors.days?.[i]?.message}>
              {(f) => <input {...f} autoComplete="off" placeholder="closed" {...form.register(`days.${i}`)} />}
            </Field>
          ))}
        </fieldset>
      )}
    </ConfirmDialog>
  );
}
