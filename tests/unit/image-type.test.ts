import { describe, expect, it } from "vitest";
import { detectImageType, IMAGE_TYPES } from "@/lib/uploads/image-type";
import { AVIF, BMP, GIF, ICO, JPEG, NOT_IMAGES, PNG, SVG, SVG_WITH_SCRIPT, WEBP } from "../support/images";

const text = (s: string) => new TextEncoder().encode(s);

describe("detectImageType", () => {
  it.each([
    ["png", PNG, IMAGE_TYPES.png],
    ["jpeg", JPEG, IMAGE_TYPES.jpeg],
    ["gif", GIF, IMAGE_TYPES.gif],
    ["webp", WEBP, IMAGE_TYPES.webp],
    ["avif", AVIF, IMAGE_TYPES.avif],
    ["ico", ICO, IMAGE_TYPES.ico],
    ["bmp", BMP, IMAGE_TYPES.bmp],
    ["svg", SVG, IMAGE_TYPES.svg],
    ["svg with a script", SVG_WITH_SCRIPT, IMAGE_TYPES.svg],
  ])("knows %s by its bytes", (_name, bytes, type) => {
    expect(detectImageType(bytes)).toEqual(type);
  });

  it("answers the served type and the key's extension", () => {
    expect(detectImageType(PNG)).toEqual({ mime: "image/png", ext: "png" });
    expect(detectImageType(JPEG)).toEqual({ mime: "image/jpeg", ext: "jpg" });
    expect(detectImageType(SVG)).toEqual({ mime: "image/svg+xml", ext: "svg" });
  });

  it.each(Object.entries(NOT_IMAGES))("refuses a file that is no image (%s)", (_name, bytes) => {
    expect(detectImageType(bytes)).toBeNull();
  });

  it.each([
    ["a PNG signature cut short", PNG.subarray(0, 7)],
    ["a GIF version that does not exist", text("GIF88a....")],
    ["RIFF that is not WebP (a WAV file)", text("RIFF\x24\0\0\0WAVEfmt \x10\0\0\0")],
    [
      "an MP4 (ftyp without an AVIF brand)",
      new Uint8Array([0, 0, 0, 24, ...text("ftypisom"), 0, 0, 2, 0, ...text("isomiso2mp41")]),
    ],
    ["text starting with BM", text("BMW drivers and other stories, told at length here")],
    ["a cursor file (ICO type 2)", new Uint8Array([0, 0, 2, 0, 1, 0, ...ICO.subarray(6)])],
    ["an ICO whose entry points past the end", ICO.subarray(0, 30)],
    ["a ZIP archive", new Uint8Array([0x50, 0x4b, 0x03, 0x04, 20, 0, 0, 0])],
    ["a PDF", text("%PDF-1.7\n%âãÏÓ\n")],
    ["an ELF executable", new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0])],
  ])("refuses %s", (_name, bytes) => {
    expect(detectImageType(bytes)).toBeNull();
  });
});

describe("SVG is recognised only when its first element is <svg>", () => {
  it.each([
    ["a byte-order mark and whitespace", "\uFEFF \n\t<svg/>"],
    ["an XML declaration", '<?xml version="1.0" standalone="no"?><svg></svg>'],
    ["comments", "<!-- one --><!-- two -->\n<svg>"],
    [
      "a doctype",
      '<?xml version="1.0"?>\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n<svg>',
    ],
    ["attributes on new lines", '<svg\n  xmlns="http://www.w3.org/2000/svg">'],
  ])("after %s", (_name, source) => {
    expect(detectImageType(text(source))).toEqual(IMAGE_TYPES.svg);
  });

  it.each([
    ["HTML holding an SVG", "<html><svg></svg></html>"],
    ["an element whose name only starts with svg", "<svgx></svgx>"],
    ["upper-case SVG (XML names are case-sensitive)", "<SVG></SVG>"],
    ["text before the element", "hello <svg></svg>"],
    ["an unclosed comment", "<!-- <svg>"],
    ["an unclosed XML declaration", '<?xml version="1.0" <svg>'],
    ["a doctype with entity definitions", '<!DOCTYPE svg [<!ENTITY x "y">]><svg>&x;</svg>'],
    ["a stylesheet instruction", '<?xml-stylesheet href="x.css"?><svg></svg>'],
    ["two doctypes", "<!DOCTYPE svg><!DOCTYPE svg><svg>"],
    ["a script element", "<script>alert(1)</script><svg></svg>"],
    ["invalid UTF-8", new Uint8Array([0x3c, 0x73, 0x76, 0x67, 0x20, 0xff, 0xfe, 0x3e])],
    ["UTF-16", new Uint8Array(Buffer.from("\uFEFF<svg></svg>", "utf16le"))],
  ])("not %s", (_name, source) => {
    expect(detectImageType(typeof source === "string" ? text(source) : source)).toBeNull();
  });
});
