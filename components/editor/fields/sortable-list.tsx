"use client";

import {
  type Announcements,
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  type Modifier,
  PointerSensor,
  type UniqueIdentifier,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { GripVerticalIcon } from "lucide-react";
import type * as React from "react";
import { useId, useRef } from "react";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import { cn } from "@/lib/utils";

// A vertical list reordered by drag (mouse, touch, pen) AND by keyboard: the handle is a
// button; Space or Enter picks the item up, arrows move it, Space or Enter drops it, Escape
// cancels. Screen readers hear the instructions and every move through dnd-kit's live region.

// Items only move up and down.
const verticalOnly: Modifier = ({ transform }) => ({ ...transform, x: 0 });

export function SortableList({
  ids,
  labelOf,
  onMove,
  children,
}: {
  ids: string[];
  /** The item's name as spoken in the announcements. */
  labelOf: (id: string) => string;
  onMove: (from: number, to: number) => void;
  children: React.ReactNode;
}) {
  // A stable id keeps dnd-kit's screen reader ids the same on the server and in the browser.
  const id = useId();
  const moved = useRef(false);
  const sensors = useSensors(
    // A few pixels of movement before a drag starts, so a click on the handle stays a click.
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  const position = (id: UniqueIdentifier) => ids.indexOf(String(id)) + 1;
  const say = (template: string, id: UniqueIdentifier, at: UniqueIdentifier) =>
    fillTemplate(template, { item: labelOf(String(id)), position: position(at), total: ids.length });
  const announcements: Announcements = {
    onDragStart: ({ active }) => {
      moved.current = false;
      return say(messages.dndPickedUp, active.id, active.id);
    },
    // dnd-kit reports the item over itself right after the pick-up: that is no move, and
    // announcing it would talk over "picked up". Once it has moved, every position is said.
    onDragOver: ({ active, over }) => {
      if (!over || (over.id === active.id && !moved.current)) return undefined;
      moved.current = true;
      return say(messages.dndMovedTo, active.id, over.id);
    },
    onDragEnd: ({ active, over }) => say(messages.dndDropped, active.id, over?.id ?? active.id),
    onDragCancel: ({ active }) => say(messages.dndCancelled, active.id, active.id),
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = ids.indexOf(String(active.id));
    const to = ids.indexOf(String(over.id));
    if (from >= 0 && to >= 0) onMove(from, to);
  };

  return (
    <DndContext
      id={id}
      sensors={sensors}
      collisionDetection={closestCenter}
      modifiers={[verticalOnly]}
      onDragEnd={onDragEnd}
      accessibility={{ announcements, screenReaderInstructions: { draggable: messages.dndInstructions } }}
    >
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        {children}
      </SortableContext>
    </DndContext>
  );
}

export type DragHandleProps = {
  ref: (el: HTMLElement | null) => void;
} & React.HTMLAttributes<HTMLElement>;

/** One item of a SortableList, rendered as an <li>; `children` gets the handle's props. */
export function SortableItem({
  id,
  className,
  children,
}: {
  id: string;
  className?: string;
  children: (handle: DragHandleProps, dragging: boolean) => React.ReactNode;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } =
    useSortable({ id });
  const style: React.CSSProperties = {
    transform: CSS.Translate.toString(transform),
    transition,
    position: "relative",
    zIndex: isDragging ? 10 : undefined,
  };
  return (
    <li ref={setNodeRef} style={style} className={cn(isDragging && "opacity-90 shadow-lg", className)}>
      {children({ ref: setActivatorNodeRef, ...attributes, ...listeners }, isDragging)}
    </li>
  );
}

/** The grip button that picks an item up. */
export function DragHandle({
  handle,
  label,
  className,
}: {
  handle: DragHandleProps;
  label: string;
  className?: string;
}) {
  const { ref, ...rest } = handle;
  return (
    <button
      type="button"
      ref={ref}
      {...rest}
      aria-label={fillTemplate(messages.dragHandle, { label })}
      className={cn(
        "flex size-8 shrink-0 cursor-grab touch-none items-center justify-center rounded-md text-muted-foreground hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring active:cursor-grabbing",
        className,
      )}
    >
      <GripVerticalIcon aria-hidden="true" className="size-4" />
    </button>
  );
}
