"use client";

import {
  BlocksIcon,
  ChevronsUpDownIcon,
  GemIcon,
  HouseIcon,
  LogOutIcon,
  SettingsIcon,
  UsersIcon,
} from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import type * as React from "react";
import { ThemeToggle } from "@/components/theme/theme-toggle";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { Separator } from "@/components/ui/separator";
import { messages } from "@/lib/messages";
import {
  Sidebar,
  SidebarContent,
  SidebarFooter,
  SidebarHeader,
  SidebarInset,
  SidebarLabel,
  SidebarMenu,
  SidebarMenuButton,
  SidebarMenuItem,
  SidebarProvider,
  SidebarTrigger,
  useSidebar,
} from "./sidebar";

export type ShellUser = { email: string; plan: string; isAdmin: boolean };

const navItems = [
  { href: "/home", label: "Home", icon: HouseIcon },
  { href: "/settings", label: "Settings", icon: SettingsIcon },
  { href: "/joinplan", label: "Plans", icon: GemIcon },
] as const;
/** Administrators also get the operator's page (plans and admin rights without payments). */
const adminNavItems = [
  { href: "/admin/builders", label: messages.adminBuildersNav, icon: UsersIcon },
] as const;

/** A nav item stays highlighted on its sub-pages too. */
function isCurrent(pathname: string, href: string): boolean {
  return pathname === href || pathname.startsWith(`${href}/`);
}

export type BuilderShellProps = {
  /** From the sidebar cookie, read by the server layout (see isSidebarOpen). */
  defaultOpen: boolean;
  user: ShellUser;
  /** Page title or actions for the header row, beside the sidebar toggle. */
  header?: React.ReactNode;
  children: React.ReactNode;
};

/** The frame of every builder page: navigation sidebar, account menu, header row. */
export function BuilderShell({ defaultOpen, user, header, children }: BuilderShellProps) {
  return (
    <SidebarProvider defaultOpen={defaultOpen}>
      <Sidebar>
        <SidebarHeader>
          <SidebarMenu>
            <SidebarMenuItem>
              <BrandLink />
            </SidebarMenuItem>
          </SidebarMenu>
        </SidebarHeader>
        <SidebarContent>
          <MainNav isAdmin={user.isAdmin} />
        </SidebarContent>
        <SidebarFooter>
          <SidebarMenu>
            <SidebarMenuItem>
              <UserMenu user={user} />
            </SidebarMenuItem>
          </SidebarMenu>
        </SidebarFooter>
      </Sidebar>
      <SidebarInset>
        <header className="sticky top-0 z-10 flex h-12 shrink-0 items-center gap-2 border-b border-border bg-background px-3">
          <SidebarTrigger />
          {header && (
            <>
              <Separator orientation="vertical" className="h-4!" />
              <div className="flex min-w-0 flex-1 items-center gap-2">{header}</div>
            </>
          )}
          <ThemeToggle className="ml-auto" />
        </header>
        <div className="flex flex-1 flex-col">{children}</div>
      </SidebarInset>
    </SidebarProvider>
  );
}

// On phones the sidebar is a sheet over the page: picking a destination should reveal it.
function useCloseSheet(): () => void {
  const { isMobile, setOpenMobile } = useSidebar();
  return () => {
    if (isMobile) setOpenMobile(false);
  };
}

function BrandLink() {
  const closeSheet = useCloseSheet();
  return (
    <SidebarMenuButton asChild size="default" tooltip={messages.productName}>
      <Link href="/home" onClick={closeSheet} className="font-semibold">
        <BlocksIcon aria-hidden />
        <SidebarLabel>{messages.productName}</SidebarLabel>
      </Link>
    </SidebarMenuButton>
  );
}

function MainNav({ isAdmin }: { isAdmin: boolean }) {
  const pathname = usePathname() ?? "";
  const closeSheet = useCloseSheet();
  const items = isAdmin ? [...navItems, ...adminNavItems] : navItems;
  return (
    <nav aria-label={messages.mainNavigation}>
      <SidebarMenu>
        {items.map(({ href, label, icon: Icon }) => {
          const current = isCurrent(pathname, href);
          return (
            <SidebarMenuItem key={href}>
              <SidebarMenuButton asChild isActive={current} tooltip={label}>
                <Link href={href} aria-current={current ? "page" : undefined} onClick={closeSheet}>
                  <Icon aria-hidden />
                  <SidebarLabel>{label}</SidebarLabel>
                </Link>
              </SidebarMenuButton>
            </SidebarMenuItem>
          );
        })}
      </SidebarMenu>
    </nav>
  );
}

function UserMenu({ user }: { user: ShellUser }) {
  const { isMobile } = useSidebar();
  const closeSheet = useCloseSheet();
  const initial = user.email.charAt(0).toUpperCase();
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <SidebarMenuButton size="lg" className="data-[state=open]:bg-foreground/8">
          <span
            aria-hidden
            className="flex size-8 shrink-0 items-center justify-center rounded-md bg-primary text-sm font-medium text-primary-foreground"
          >
            {initial}
          </span>
          {/* The name comes from this text (it must contain what is visible, for speech input);
              collapsed to an initial, the text stays for screen readers. */}
          <span className="grid min-w-0 flex-1 leading-tight group-data-[collapsible=icon]/sidebar:sr-only">
            <span className="truncate font-medium">{user.email}</span>
            <span className="truncate text-xs capitalize text-muted-foreground">{user.plan}</span>
          </span>
          <span className="sr-only">{messages.accountMenu}</span>
          <ChevronsUpDownIcon aria-hidden className="ml-auto group-data-[collapsible=icon]/sidebar:hidden" />
        </SidebarMenuButton>
      </DropdownMenuTrigger>
      <DropdownMenuContent
        side={isMobile ? "top" : "right"}
        align="end"
        sideOffset={8}
        className="w-(--radix-dropdown-menu-trigger-width) min-w-56"
      >
        <DropdownMenuLabel className="grid gap-1 font-normal">
          <span className="truncate font-medium">{user.email}</span>
          <span className="flex items-center gap-2 text-xs text-muted-foreground">
            <span>
              {messages.planLabel}: <span className="capitalize">{user.plan}</span>
            </span>
            {user.isAdmin && (
              <span className="rounded-sm bg-muted px-1.5 py-0.5 font-medium text-foreground">
                {messages.adminBadge}
              </span>
            )}
          </span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link href="/settings" onClick={closeSheet}>
            <SettingsIcon aria-hidden />
            Settings
          </Link>
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          {/* A full page load on purpose: signing out must drop every piece of client state. */}
          <a href="/logout">
            <LogOutIcon aria-hidden />
            Log out
          </a>
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
