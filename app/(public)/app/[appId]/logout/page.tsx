import { LogoutRunner } from "@/components/auth/logout-runner";

export default async function AppLogoutPage({ params }: { params: Promise<{ appId: string }> }) {
  const { appId } = await params;
  return <LogoutRunner to={`/app/${appId}`} />;
}
