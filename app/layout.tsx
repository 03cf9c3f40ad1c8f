import { GeistMono } from "geist/font/mono";
import { GeistSans } from "geist/font/sans";
import type { Metadata } from "next";
import { cookies } from "next/headers";
import { ThemeProvider } from "@/components/theme/theme-provider";
import { Toaster } from "@/components/ui/toaster";
import { parseTheme, THEME_COOKIE } from "@/lib/theme";
import "./globals.css";

export const metadata: Metadata = {
  title: "Builder",
  description: "Build, brand and publish AI apps and tools",
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Reading the cookie renders every page per request, which the CSP needs too: Next puts the
  // request's nonce (proxy.ts) on its scripts only then. The remembered theme is on the very
  // first byte: no flash, and no script needed for it.
  const theme = parseTheme((await cookies()).get(THEME_COOKIE)?.value);
  // Browser extensions (spell checkers, dark modes, password managers) write their own attributes
  // on <html> and <body> before React hydrates, which React reports as a mismatch of our page.
  // suppressHydrationWarning covers these two elements' own attributes only, nothing below them.
  return (
    <html
      lang="en"
      data-theme={theme}
      className={`${GeistSans.variable} ${GeistMono.variable}`}
      suppressHydrationWarning
    >
      <body className="min-h-screen antialiased" suppressHydrationWarning>
        <ThemeProvider initialTheme={theme}>
          {children}
          <Toaster />
        </ThemeProvider>
      </body>
    </html>
  );
}
