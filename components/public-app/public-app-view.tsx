import { ArrowLeftIcon } from "lucide-react";
import type * as React from "react";
import type { PublicContent, PublicStyle } from "@/lib/apps/public-content";
import { safeHref, safeImageSrc } from "@/lib/apps/safe-link";
import type { AppType } from "@/lib/apps/schemas";
import { publicAppMessages } from "@/lib/messages/public-app";
import { shellMessages } from "@/lib/messages/shell";
import { fillTemplate } from "@/lib/text";
import { cn } from "@/lib/utils";
import { AppLink } from "./app-link";
import { contrastRatio, isDarkColor, shownTextColors, withAlpha } from "./colors";
import { DraftBanner } from "./draft-banner";
import { type PublicRunConfig, PublicTool } from "./public-tool";
import { cssUrl } from "./safe-url";

// The published app as its visitors see it, drawn from its saved (or, in the editor's preview
// pane, unsaved) content and style. Presentational: no data is fetched here and nothing here is
// server-only, so the editor renders the same component beside its panels.
//
// Colours: texts on the builder's background use the builder's colours (made readable when a
// pick would not be); form controls sit on a neutral surface card whose light or dark scheme
// follows the builder's background, not the visitor's theme, so the page looks as branded.

export type PublicAppTool = { title: string; path: string; imageUrl: string | null };

export type PublicAppViewProps = {
  appId: string;
  appType: AppType;
  /**
   * The app's content, or the tool's on a tool page of a generated app: on live pages only its
   * public part (publicContentOf), in the editor's preview the builder's unsaved content.
   */
  content: PublicContent;
  style: PublicStyle;
  /** The style's hideBuildAI, else the owner's plan default (the server decides). */
  watermarkHidden: boolean;
  /** The active tools of a generated app, for its main page. */
  tools?: PublicAppTool[];
  /** "preview": in the editor's side pane; links do not navigate and it fills its container. */
  mode: "live" | "preview";
  /** Seen by its builder while unpublished: shows the banner ("tool": a draft tool of a published app). */
  draft?: boolean | "app" | "tool";
  /** The sign-in area of the top bar (live pages). */
  headerRight?: React.ReactNode;
  /** The app's main page (default) or one tool of a generated app. */
  page?: "main" | "tool";
  /** Generated apps: the settings' mainPage ("tools" puts the tools grid first). */
  mainPage?: "home" | "tools" | "chat";
  /** The app's name, for the top bar of a tool page. */
  appHeader?: string;
  /** Live pages: what running the tool needs (absent in the editor's preview, where nothing runs). */
  run?: PublicRunConfig;
};

/**
 * The theme tokens (app/globals.css) pinned to one scheme inside the view: the surface follows
 * the builder's background, whatever the visitor's theme. Set as variables because light-dark()
 * in a custom property is resolved where the property is defined, not where it is used.
 */
const SCHEMES = {
  light: {
    "--background": "#ffffff",
    "--foreground": "#0a0a0a",
    "--muted": "#f4f4f5",
    "--muted-foreground": "#636369",
    "--border": "#e4e4e7",
    "--primary": "#18181b",
    "--primary-foreground": "#fafafa",
    "--destructive": "#b91c1c",
    "--accent": "#f4f4f5",
    "--ring": "#a1a1aa",
  },
  dark: {
    "--background": "#09090b",
    "--foreground": "#fafafa",
    "--muted": "#27272a",
    "--muted-foreground": "#a1a1aa",
    "--border": "#3f3f46",
    "--primary": "#fafafa",
    "--primary-foreground": "#18181b",
    "--destructive": "#f87171",
    "--accent": "#27272a",
    "--ring": "#71717a",
  },
} as const;

export function PublicAppView(props: PublicAppViewProps) {
  const { appId, appType, content, style, watermarkHidden, tools, mode, draft, headerRight } = props;
  const page = props.page ?? "main";
  const dark = isDarkColor(style.background);
  const background = style.background;
  // The editor's branding panel names the colours replaced here (shownTextColors, both places).
  const shown = shownTextColors(style);
  const headerColor = shown.headerTextColor;
  const subColor = shown.subheaderTextColor;
  const buttonColor = shown.buttonTextColor;
  const scheme = dark ? SCHEMES.dark : SCHEMES.light;
  const surface = scheme["--background"];
  // A button the colour of the card would vanish into it: give it an edge.
  const buttonEdge =
    contrastRatio(style.buttonBackgroundColor, surface) < 1.5 ? withAlpha(buttonColor, 0.35) : "transparent";
  const buttonStyle: React.CSSProperties = {
    backgroundColor: style.buttonBackgroundColor,
    color: buttonColor,
    boxShadow: `inset 0 0 0 1px ${buttonEdge}`,
  };
  const ctaEdge =
    contrastRatio(style.buttonBackgroundColor, background) < 1.5
      ? withAlpha(buttonColor, 0.35)
      : "transparent";
  const image = safeImageSrc(style.backgroundImage);
  const logo = safeImageSrc(style.logoUrl);
  const appName = props.appHeader ?? (page === "main" ? content.header : "");
  const isToolPage = appType === "generated" && page === "tool";
  const showForm = appType === "tool" || isToolPage;
  const showHub = appType === "generated" && !isToolPage;
  const title =
    content.header ||
    (isToolPage ? publicAppMessages.publicUntitledTool : publicAppMessages.publicUntitledApp);
  const appHref = `/app/${appId}`;
  // Over a background image the texts get a panel of the background colour, so they stay readable.
  const textPanel: React.CSSProperties | undefined = image
    ? { backgroundColor: withAlpha(background, 0.88) }
    : undefined;

  const Main = mode === "live" ? "main" : "div";

  const callToAction = (
    <CallToAction
      content={content}
      mode={mode}
      color={subColor}
      panel={textPanel}
      buttonStyle={{ ...buttonStyle, boxShadow: `inset 0 0 0 1px ${ctaEdge}` }}
    />
  );

  const hero = (
    <div className={cn("grid gap-3", image && "rounded-xl p-5 @md:p-6")} style={textPanel}>
      <h1
        className="text-3xl font-bold tracking-tight text-balance break-words @md:text-4xl"
        style={{ color: headerColor }}
      >
        {title}
      </h1>
      {content.description && (
        <p className="text-base whitespace-pre-line break-words @md:text-lg" style={{ color: subColor }}>
          {content.description}
        </p>
      )}
    </div>
  );

  const toolsGrid = showHub && (
    <ToolsGrid appId={appId} tools={tools ?? []} mode={mode} emptyColor={subColor} emptyStyle={textPanel} />
  );

  return (
    <div
      className={cn(
        "@container relative flex w-full flex-col bg-cover bg-center bg-no-repeat text-foreground",
        mode === "live" ? "min-h-dvh" : "min-h-full",
      )}
      style={{
        backgroundColor: background,
        backgroundImage: image ? cssUrl(image) : undefined,
        colorScheme: dark ? "dark" : "light",
        ...(scheme as React.CSSProperties),
      }}
      data-public-app={appId}
      data-app-style={style.styleName}
    >
      {draft && <DraftBanner draft={draft === "tool" ? "tool" : "app"} />}

      <header
        className={cn(
          "mx-auto flex w-full items-center justify-between gap-3 px-4 py-3 @md:px-6",
          showHub ? "max-w-5xl" : "max-w-2xl",
        )}
      >
        <div className="flex min-w-0 items-center gap-3">
          {isToolPage && (
            <AppLink
              href={appHref}
              mode={mode}
              className="inline-flex shrink-0 items-center gap-1.5 rounded-md px-2 py-1.5 text-sm font-medium underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-current"
              style={{ color: subColor, ...textPanel }}
            >
              <ArrowLeftIcon className="size-4" aria-hidden />
              {publicAppMessages.publicAllTools}
            </AppLink>
          )}
          {logo && (
            <AppLink
              href={appHref}
              mode={mode}
              className="shrink-0 rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-current"
            >
              {/* biome-ignore lint/performance/noImgElement: a builder upload served by our file route */}
              <img
                src={logo}
                alt={fillTemplate(publicAppMessages.publicLogoAlt, {
                  name: appName || publicAppMessages.publicUntitledApp,
                })}
                className="h-10 w-auto max-w-40 object-contain @md:h-12"
              />
            </AppLink>
          )}
          {isToolPage && appName && (
            <span className="truncate text-sm font-semibold" style={{ color: headerColor, ...textPanel }}>
              {appName}
            </span>
          )}
        </div>
        {headerRight && <div className="flex shrink-0 items-center gap-2">{headerRight}</div>}
      </header>

      <Main
        className={cn(
          "mx-auto grid w-full flex-1 content-start gap-8 px-4 pt-6 pb-12 @md:px-6 @md:pt-10",
          showHub ? "max-w-5xl" : "max-w-2xl",
        )}
      >
        {showHub && props.mainPage === "tools" ? (
          <>
            <h1
              className="text-2xl font-bold tracking-tight break-words"
              style={{ color: headerColor, ...textPanel }}
            >
              {title}
            </h1>
            {toolsGrid}
            {content.description && (
              <p className="whitespace-pre-line break-words" style={{ color: subColor, ...textPanel }}>
                {content.description}
              </p>
            )}
          </>
        ) : (
          <>
            {hero}
            {toolsGrid}
          </>
        )}

        {showForm && (
          <PublicTool
            appId={appId}
            content={content}
            label={title}
            buttonStyle={buttonStyle}
            run={mode === "live" ? (props.run ?? null) : null}
            cta={mode === "live" ? callToAction : null}
          />
        )}

        {appType !== "tool" && !isToolPage && content.welcomeMessage && (
          <p className="whitespace-pre-line break-words" style={{ color: subColor, ...textPanel }}>
            {content.welcomeMessage}
          </p>
        )}

        {appType === "space" && (
          <p className={cn("rounded-xl border border-border bg-background p-4 text-sm text-foreground")}>
            {publicAppMessages.publicSpaceNotAvailable}
          </p>
        )}
        {/* A live tool shows it once an answer has arrived; the editor's preview always, to edit it. */}
        {!(showForm && mode === "live") && callToAction}
      </Main>

      {!watermarkHidden && (
        <footer className="flex justify-center px-4 pt-2 pb-6">
          <AppLink
            href="/"
            mode={mode}
            external
            className="rounded-full px-3 py-1 text-xs font-medium underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-current"
            style={{ color: subColor, ...textPanel }}
          >
            {fillTemplate(publicAppMessages.publicBuiltWith, { product: shellMessages.productName })}
          </AppLink>
        </footer>
      )}
    </div>
  );
}

function ToolsGrid({
  appId,
  tools,
  mode,
  emptyColor,
  emptyStyle,
}: {
  appId: string;
  tools: PublicAppTool[];
  mode: "live" | "preview";
  emptyColor: string;
  emptyStyle?: React.CSSProperties;
}) {
  if (tools.length === 0) {
    return (
      <p className="rounded-xl text-base" style={{ color: emptyColor, ...emptyStyle }}>
        {publicAppMessages.publicNoTools}
      </p>
    );
  }
  return (
    <section aria-label={publicAppMessages.publicTools}>
      <ul className="grid grid-cols-1 gap-4 @sm:grid-cols-2 @3xl:grid-cols-3">
        {tools.map((tool) => {
          const image = safeImageSrc(tool.imageUrl);
          const name = tool.title || publicAppMessages.publicUntitledTool;
          return (
            <li key={tool.path} className="min-w-0">
              <AppLink
                href={`/app/${appId}/tool/${encodeURIComponent(tool.path)}`}
                mode={mode}
                className="group flex h-full items-center overflow-hidden rounded-xl border border-border bg-background text-foreground shadow-sm transition-shadow hover:shadow-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 @sm:flex-col @sm:items-stretch"
              >
                {image ? (
                  // biome-ignore lint/performance/noImgElement: a builder upload served by our file route
                  <img
                    src={image}
                    alt=""
                    className="size-20 shrink-0 bg-muted object-cover @sm:aspect-video @sm:size-auto @sm:w-full"
                  />
                ) : (
                  <span
                    aria-hidden
                    className="flex size-20 shrink-0 items-center justify-center bg-muted text-2xl font-bold text-muted-foreground @sm:aspect-video @sm:size-auto @sm:w-full @sm:text-3xl"
                  >
                    {name.trim().charAt(0).toUpperCase()}
                  </span>
                )}
                <span className="p-4 text-base font-semibold break-words group-hover:underline">{name}</span>
              </AppLink>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function CallToAction({
  content,
  mode,
  color,
  panel,
  buttonStyle,
}: {
  content: Pick<PublicContent, "ctaMessage" | "ctaButton" | "ctaLink">;
  mode: "live" | "preview";
  color: string;
  panel?: React.CSSProperties;
  buttonStyle: React.CSSProperties;
}) {
  const href = safeHref(content.ctaLink);
  const button = content.ctaButton && href;
  if (!content.ctaMessage && !button) return null;
  return (
    <section
      className={cn("grid justify-items-center gap-3 text-center", panel && "rounded-xl p-5")}
      style={panel}
    >
      {content.ctaMessage && (
        <p className="text-lg font-medium text-balance break-words" style={{ color }}>
          {content.ctaMessage}
        </p>
      )}
      {button && (
        <AppLink
          href={href}
          mode={mode}
          external={!href.startsWith("/")}
          className="inline-flex h-10 max-w-full items-center justify-center truncate rounded-md px-6 text-sm font-semibold focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-current focus-visible:ring-offset-2"
          style={buttonStyle}
        >
          {content.ctaButton}
        </AppLink>
      )}
    </section>
  );
}
