import { ThemeToggle } from "@/components/theme/theme-toggle";

export default function AuthLayout({ children }: { children: React.ReactNode }) {
  return (
    <main className="relative flex min-h-screen items-center justify-center bg-muted/40 px-4 py-12">
      <ThemeToggle className="absolute top-3 right-3 bg-background" />
      <div className="w-full max-w-sm">{children}</div>
    </main>
  );
}
