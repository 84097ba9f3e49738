// The admin's input for a new integration key: one zod definition, used by the API and the form.
import * as z from "zod";

export const CreateIntegrationKeyInputSchema = z.strictObject({
  name: z.string().trim().min(1, "Name the system that will use the key").max(100, "at most 100 characters"),
});
export type CreateIntegrationKeyInput = z.infer<typeof CreateIntegrationKeyInputSchema>;
