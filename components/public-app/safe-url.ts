/** A CSS url() of a safe image address, quoted and escaped. */
export function cssUrl(src: string): string {
  return `url("${src.replace(/["\\\n\r]/g, (c) => `\\${c.charCodeAt(0).toString(16)} `)}")`;
}
