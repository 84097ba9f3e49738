"use client";
// A store's drug rules: the substances its state schedules beyond the federal table (gabapentin is C-V in
// several states) and how many months a non-controlled prescription stays valid.
import * as z from "zod";
import { apiFetch } from "@/components/admin/api";
import { ConfirmDialog } from "@/components/admin/confirm-dialog";
import { useStoresRefresh, type StoreRow } from "@/components/admin/stores/store-row";
import { useConfirmedAction } from "@/components/admin/use-confirmed-action";
import { useSchemaForm } from "@/components/forms/use-schema-form";
import { Field } from "@/components/ui/field";
import { formatExtraSchedules, parseExtraSchedulesText, StoreRulesSchema } from "@/lib/stores/store-rules";

/** The rules as the dialog takes them: the state schedules as one line of text, "gabapentin:V, …". */
const RulesFormSchema = z.object({
  extraSchedules: z
    .string()
    .max(4000, "At most 4000 characters")
    .transform((text, ctx) => {
      try {
        return parseExtraSchedulesText(text);
      } catch (err) {
        ctx.addIssue({ code: "custom", message: err instanceof Error ? err.message : String(err) });
        return z.NEVER;
      }
    }),
  rxExpiryMonths: z.coerce.number({ error: "Enter a number of months" }).pipe(StoreRulesSchema.shape.rxExpiryMonths),
});

export function useStoreRules(onDone: (message: string) => void) {
  const refresh = useStoresRefresh();
  const form = useSchemaForm(RulesFormSchema, { defaultValues: { extraSchedules: "", rxExpiryMonths: 12 } });
  const action = useConfirmedAction({
    form: {
      form,
      fields: ["extraSchedules", "rxExpiryMonths"],
      valuesOf: (store: StoreRow) => ({
        extraSchedules: formatExtraSchedules(store.extraSchedules),
        rxExpiryMonths: store.rxExpiryMonths,
      }),
    },
    run: (store: StoreRow, input) =>
      apiFetch<{ reclassified: number }>(`/api/admin/stores/${store.storeId}`, { method: "PATCH", body: input }),
    onDone: async (saved, store) => {
      onDone(
        `Drug rules of ${store.name} saved` +
          (saved.reclassified
            ? `; ${saved.reclassified} pending transfer${saved.reclassified === 1 ? "" : "s"} classified again.`
            : "."),
      );
      await refresh();
    },
  });
  return { action, form };
}

export function StoreRulesDialog({ change }: { change: ReturnType<typeof useStoreRules> }) {
  const { action, form } = change;
  const errors = form.formState.errors;
  return (
    <ConfirmDialog
      {...action.dialog}
      title={`Drug rules of ${action.target?.name ?? ""}`}
      description="State law on top of the federal rules. The stricter schedule applies; pending transfers are classified again at once, approvals already made keep theirs."
      confirmLabel="Save drug rules"
      pendingLabel="Saving…"
      variant="primary"
    >
      <Field
        label="State schedules"
        error={errors.extraSchedules?.message}
        hint="Substance and schedule (II, III, IV or V), separated by commas, e.g. gabapentin:V. Empty: the federal table only."
      >
        {(f) => <textarea {...f} rows={3} autoComplete="off" data-autofocus {...form.register("extraSchedules")} />}
      </Field>
      <Field
        label="Non-controlled prescriptions are valid for (months)"
        error={errors.rxExpiryMonths?.message}
        hint="After the written date; 1 to 60. Commonly 12."
      >
        {(f) => (
          <input
            {...f}
            type="number"
            inputMode="numeric"
            min={1}
            max={60}
            step={1}
            {...form.register("rxExpiryMonths")}
          />
        )}
      </Field>
    </ConfirmDialog>
  );
}
