export type ZipPart = { name: string; method: number; compressed: number; size: number; start: number };
export function zipParts(bytes: Uint8Array): ZipPart[];
export function isMarkupPart(name: string): boolean;
export function statedMarkupSize(bytes: Uint8Array, limit: number): number;
export function checkMarkupSize(bytes: Uint8Array, limit: number): void;
