import { Readability } from "@mozilla/readability";
import * as cheerio from "cheerio";
import { parseHTML } from "linkedom";

// What a web page says and where it links. Plain JavaScript: it runs in the parsing worker
// (worker.mjs), never on the server's own thread (lib/context/web/page-text.ts asks the worker).

// Elements that start a new line in the rendered page: their text must not run together
// ("Heading" + "First sentence" is not "HeadingFirst sentence").
const BLOCKS =
  "address,article,aside,blockquote,dd,div,dl,dt,figcaption,figure,footer,form,h1,h2,h3,h4,h5,h6,header,hr,li,main,nav,ol,p,pre,section,table,tr,ul";
const NOT_TEXT = "script,style,noscript,template,svg,canvas,iframe,object,head";

/**
 * The main text is Mozilla Readability's article (no menus, footers, cookie banners); a page
 * Readability finds no article in gives its whole body text. `<meta name="robots">` noindex /
 * nofollow are honoured like robots.txt.
 */
export function readPage(body, mediaType, url) {
  if (mediaType === "text/plain") return { title: "", text: tidy(body), links: [] };
  const $ = cheerio.load(body);
  const robots = $('meta[name="robots" i], meta[name="builderbot" i]')
    .map((_, el) => ($(el).attr("content") ?? "").toLowerCase())
    .get()
    .join(",");
  const noIndex = /\b(noindex|none)\b/.test(robots);
  const noFollow = /\b(nofollow|none)\b/.test(robots);
  const links = noFollow
    ? []
    : $("a[href], area[href]")
        .map((_, el) => $(el).attr("href") ?? "")
        .get()
        .filter(Boolean);
  const baseHref = $("base[href]").attr("href");
  let base;
  try {
    base = baseHref ? new URL(baseHref, url).href : undefined;
  } catch {
    base = undefined;
  }
  const title = tidy($("title").first().text()).replace(/\n/g, " ");
  if (noIndex) return { title, text: "", links, base };
  const article = readArticle(body);
  const text = (article && htmlText(cheerio.load(article.content))) || htmlText($);
  return { title: article?.title?.trim() || title, text, links, base };
}

function readArticle(body) {
  try {
    const { document } = parseHTML(body);
    const article = new Readability(document, { keepClasses: false }).parse();
    return article?.content ? { title: article.title ?? "", content: article.content } : undefined;
  } catch {
    // A page Readability chokes on still has a body to read.
    return undefined;
  }
}

/** The text of a document, one line per block element. */
function htmlText($) {
  $(NOT_TEXT).remove();
  $("br").replaceWith("\n");
  $(BLOCKS).each((_, el) => {
    $(el).prepend("\n").append("\n");
  });
  $("td,th").append(" ");
  return tidy($.root().text());
}

function tidy(text) {
  return text
    .split("\n")
    .map((line) => line.replace(/\s+/g, " ").trim())
    .filter(Boolean)
    .join("\n");
}
