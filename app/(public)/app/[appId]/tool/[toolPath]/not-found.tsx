import { ToolNotFound } from "@/components/public-app/tool-not-found";

export default function AppToolNotFound() {
  return <ToolNotFound />;
}
