import type { Metadata } from "next";
import { LogoutRunner } from "@/components/auth/logout-runner";

export const metadata: Metadata = { title: "Signing out" };

export default function LogoutPage() {
  return <LogoutRunner to="/login" />;
}
