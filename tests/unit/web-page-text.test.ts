import { describe, expect, it } from "vitest";
import { readPage } from "@/lib/context/web/page-text";
import { pageKey, resolveLink, sameSite } from "@/lib/context/web/page-url";

describe("resolveLink and pageKey", () => {
  const base = "https://example.com/docs/intro";
  const key = (href: string) => {
    const url = resolveLink(href, base);
    return url && pageKey(url);
  };

  it("gives one key per page: no fragment, default port, trailing slash or scheme difference", () => {
    expect(key("/guide")).toBe("example.com/guide");
    expect(key("/guide#install")).toBe("example.com/guide");
    expect(key("/guide/")).toBe("example.com/guide");
    expect(key("https://example.com:443/guide")).toBe("example.com/guide");
    expect(key("http://EXAMPLE.com:80/guide")).toBe("example.com/guide");
    expect(key("guide")).toBe("example.com/docs/guide");
    expect(key("/")).toBe("example.com/");
    expect(key("https://example.com")).toBe("example.com/");
    expect(key("/search?q=a")).toBe("example.com/search?q=a");
    expect(key("http://example.com:8080/guide")).toBe("example.com:8080/guide");
  });

  it("follows only http and https links, without credentials", () => {
    expect(resolveLink("mailto:someone@example.com", base)).toBeUndefined();
    expect(resolveLink("javascript:alert(1)", base)).toBeUndefined();
    expect(resolveLink("file:///etc/passwd", base)).toBeUndefined();
    expect(resolveLink("http://[bad", base)).toBeUndefined();
    expect(resolveLink("https://user:pass@example.com/a#b", base)?.href).toBe("https://example.com/a");
  });

  it("counts the same host on either scheme as the same site, another port or host not", () => {
    const site = new URL("https://example.com/");
    expect(sameSite(new URL("http://example.com/a"), site)).toBe(true);
    expect(sameSite(new URL("https://www.example.com/a"), site)).toBe(false);
    expect(sameSite(new URL("https://example.com:8443/a"), site)).toBe(false);
  });
});

describe("readPage", () => {
  const article = `<html><head><title>Guide</title></head><body>
    <nav><a href="/menu">Menu item</a></nav>
    <article><h1>Install</h1><p>${"Run the installer and follow the steps. ".repeat(20)}</p>
    <p>Then <a href="/next">continue</a>.</p><ul><li>One</li><li>Two</li></ul></article>
    <footer>Copyright footer</footer><script>var secret = 1;</script></body></html>`;

  it("reads the main text with Readability, one line per block, and every link", async () => {
    const page = await readPage(article, "text/html", "https://example.com/guide");
    expect(page.title).toBe("Guide");
    expect(page.text).toContain("Install\nRun the installer");
    expect(page.text).toContain("One\nTwo");
    expect(page.text).not.toContain("Copyright footer");
    expect(page.text).not.toContain("var secret");
    expect(page.links).toEqual(["/menu", "/next"]);
  });

  it("falls back to the body's text when Readability finds no article", async () => {
    const page = await readPage(
      "<html><head><title>T</title><style>p{}</style></head><body><div>Short</div><div>page</div></body></html>",
      "text/html",
      "https://example.com/",
    );
    expect(page.text).toBe("Short\npage");
  });

  it("honours <meta name=robots> noindex and nofollow, and <base href>", async () => {
    const head = (meta: string) =>
      `<html><head><title>T</title>${meta}<base href="https://example.com/sub/"></head><body><p>Body text</p><a href="x">x</a></body></html>`;
    expect(
      await readPage(head('<meta name="robots" content="noindex">'), "text/html", "https://example.com/"),
    ).toMatchObject({
      text: "",
      links: ["x"],
    });
    expect(
      await readPage(head('<meta name="ROBOTS" content="nofollow">'), "text/html", "https://example.com/"),
    ).toMatchObject({
      text: "Body text\nx",
      links: [],
    });
    expect((await readPage(head(""), "text/html", "https://example.com/")).base).toBe(
      "https://example.com/sub/",
    );
  });

  it("keeps a text page as it is, tidied", async () => {
    expect(
      await readPage("  line one  \n\n\n line   two ", "text/plain", "https://example.com/a.txt"),
    ).toEqual({
      title: "",
      text: "line one\nline two",
      links: [],
    });
  });
});
