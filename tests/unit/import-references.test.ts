import { describe, expect, it } from "vitest";
import { importTarget, referencesTo, resolveImport, withoutImportsOf } from "@/lib/space/import-references";

// The files a delete in the Code panel offers to update: those importing the deleted file,
// resolved as the preview's bundler resolves imports, with only those import statements removed.

const files = [
  { path: "components/Banner.jsx", content: "export default function Banner() {}\n" },
  { path: "components/ui/index.js", content: "export const x = 1;\n" },
  {
    path: "pages/Home.jsx",
    content: [
      'import React from "react";',
      'import Banner from "../components/Banner";',
      "import {",
      "  x,",
      '} from "@/components/ui";',
      "export default function Home() {",
      "  const s = \"import Banner from '../components/Banner'\";",
      "  return <Banner />;",
      "}",
      "",
    ].join("\n"),
  },
  { path: "pages/About.jsx", content: 'import Banner from "/components/Banner.jsx";\nexport const a = 1;\n' },
  { path: "pages/Other.jsx", content: 'import Thing from "../components/BannerX";\n' },
];

describe("import references", () => {
  it("resolves relative, @/ and / imports, with extensions and folder indexes", () => {
    const paths = new Set(files.map((f) => f.path));
    expect(resolveImport(paths, "pages/Home.jsx", "../components/Banner")).toBe("components/Banner.jsx");
    expect(resolveImport(paths, "pages/Home.jsx", "@/components/ui")).toBe("components/ui/index.js");
    expect(resolveImport(paths, "pages/Home.jsx", "/components/Banner.jsx")).toBe("components/Banner.jsx");
    expect(resolveImport(paths, "pages/Home.jsx", "react")).toBeNull();
    expect(importTarget("pages/Home.jsx", "../../x")).toBeNull();
  });

  it("lists exactly the importers, each with only its import statements of the file removed", () => {
    const refs = referencesTo(files, "components/Banner.jsx");
    expect(refs.map((r) => r.path)).toEqual(["pages/Home.jsx", "pages/About.jsx"]);
    const home = refs[0]!.content;
    expect(home).not.toContain('from "../components/Banner"');
    expect(home).toContain('import React from "react";');
    expect(home).toContain('} from "@/components/ui";');
    // A string that only looks like an import is code, not a statement: kept.
    expect(home).toContain("const s = \"import Banner from '../components/Banner'\";");
    expect(refs[1]!.content).toBe("export const a = 1;\n");
  });

  it("removes a multi-line import of the file, and leaves a file without one unchanged", () => {
    const paths = new Set(files.map((f) => f.path));
    const home = files[2]!;
    const out = withoutImportsOf(home.content, home.path, "components/ui/index.js", paths);
    expect(out).not.toContain("x,");
    expect(out).toContain('import Banner from "../components/Banner";');
    expect(withoutImportsOf("const a = 1;\n", "pages/A.jsx", "components/Banner.jsx", paths)).toBe(
      "const a = 1;\n",
    );
  });
});
