import {
  AlignLeftIcon,
  CameraIcon,
  CircleDotIcon,
  DatabaseIcon,
  type LucideIcon,
  MailIcon,
  MapPinIcon,
  RulerIcon,
  SquareCheckIcon,
  TypeIcon,
  WeightIcon,
} from "lucide-react";
import type { FieldType } from "@/lib/apps/schemas";
import { type MessageKey, messages } from "@/lib/messages";

// How each field type is shown to the builder: a friendly name and an icon.

const TYPE_META: Record<FieldType, { label: MessageKey; icon: LucideIcon }> = {
  text: { label: "fieldTypeText", icon: TypeIcon },
  long_text: { label: "fieldTypeLongText", icon: AlignLeftIcon },
  select: { label: "fieldTypeSelect", icon: CircleDotIcon },
  multiselect: { label: "fieldTypeMultiselect", icon: SquareCheckIcon },
  email: { label: "fieldTypeEmail", icon: MailIcon },
  place: { label: "fieldTypePlace", icon: MapPinIcon },
  photo: { label: "fieldTypePhoto", icon: CameraIcon },
  height: { label: "fieldTypeHeight", icon: RulerIcon },
  weight: { label: "fieldTypeWeight", icon: WeightIcon },
  tool_item_select: { label: "fieldTypeToolItemSelect", icon: DatabaseIcon },
};

export const fieldTypeLabel = (type: FieldType) => messages[TYPE_META[type].label];

export function FieldTypeIcon({ type, className }: { type: FieldType; className?: string }) {
  const Icon = TYPE_META[type].icon;
  return <Icon aria-hidden="true" className={className} />;
}

export const hasOptions = (type: FieldType) => type === "select" || type === "multiselect";
