"use client";
// Every confirmation of the admin screens is the same dance: a button asks about one thing (a key, a user,
// a store, the partner itself), a ConfirmDialog names it, Confirm runs the request, and the dialog stays open
// showing the server's refusal until the request succeeds or the person cancels. This hook holds that state
// once. With a `form`, the dialog asks for input first (an overlap, a role): the form is reset from the
// target when the dialog opens, and the server's field errors land on its fields.
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import type { DefaultValues, FieldValues, UseFormReturn } from "react-hook-form";
import { messageOf, showServerErrors } from "@/components/admin/api";

type DialogForm<In extends FieldValues, Out, T> = {
  form: UseFormReturn<In, unknown, Out>;
  fields: readonly (keyof In & string)[];
  /** The form's values for this target; without it the form goes back to its defaults. */
  valuesOf?: (target: T) => DefaultValues<In>;
};

type Options<T, R, In extends FieldValues, Out> = {
  run: (target: T, input: Out) => Promise<R>;
  onDone?: (result: R, target: T) => unknown;
  form?: DialogForm<In, Out, T>;
};

/** What ConfirmDialog needs, to spread into it. */
export type ConfirmDialogState = {
  open: boolean;
  pending: boolean;
  error: string | null;
  onCancel: () => void;
  onConfirm: () => void;
};

export type ConfirmedAction<T> = {
  target: T | null;
  /** Opens the dialog about `target`. */
  ask: (target: T) => void;
  /** Runs at once, without a dialog (resume, enable): the undo of a confirmed action needs no question. */
  runNow: (target: T) => void;
  pending: boolean;
  /** The last failure, while no dialog shows it. */
  errorOutside: string | null;
  dialog: ConfirmDialogState;
};

export function useConfirmedAction<T, R = unknown, In extends FieldValues = FieldValues, Out = void>({
  run,
  onDone,
  form,
}: Options<T, R, In, Out>): ConfirmedAction<T> {
  const [target, setTarget] = useState<T | null>(null);
  const mutation = useMutation({
    mutationFn: ({ target, input }: { target: T; input: Out }) => run(target, input),
    onSuccess: async (result, { target }) => {
      setTarget(null);
      await onDone?.(result, target);
    },
  });
  const submitWith = (current: T) =>
    form
      ? form.form.handleSubmit(async (input) => {
          try {
            await mutation.mutateAsync({ target: current, input });
          } catch (err) {
            showServerErrors(err, form.form.setError, form.fields);
          }
        })()
      : mutation.mutate({ target: current, input: undefined as Out });
  const error = form
    ? (form.form.formState.errors.root?.server?.message ?? null)
    : mutation.error
      ? messageOf(mutation.error)
      : null;
  return {
    target,
    ask: (next) => {
      mutation.reset();
      form?.form.reset(form.valuesOf?.(next));
      setTarget(next);
    },
    runNow: (next) => {
      mutation.reset();
      void submitWith(next);
    },
    pending: mutation.isPending,
    errorOutside: target === null ? error : null,
    dialog: {
      open: target !== null,
      pending: mutation.isPending,
      error,
      onCancel: () => setTarget(null),
      onConfirm: () => {
        if (target !== null) void submitWith(target);
      },
    },
  };
}
