export type PageContent = {
  title: string;
  text: string;
  /** The hrefs of its links, as written, with the base to resolve them against. */
  links: string[];
  base?: string;
};
export function readPage(body: string, mediaType: string, url: string): PageContent;
