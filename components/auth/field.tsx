import type * as React from "react";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { EMAIL_MAX, PASSWORD_MAX } from "@/lib/constants";

// Addresses and passwords are held to the API's limits as they are typed.
const MAX_BY_TYPE: Record<string, number> = { email: EMAIL_MAX, password: PASSWORD_MAX };

/** A labelled input: the label is tied to the input, so screen readers and tests find it. */
export function Field({
  id,
  label,
  ...props
}: { id: string; label: string } & React.ComponentProps<typeof Input>) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} name={id} maxLength={MAX_BY_TYPE[props.type ?? ""]} {...props} />
    </div>
  );
}
