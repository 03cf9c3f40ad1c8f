/** Fills `{name}` placeholders of a catalogue message: fillTemplate("Save {percent}%", { percent: 20 }). */
export function fillTemplate(template: string, vars: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(vars, name) ? String(vars[name]) : whole,
  );
}
