import { ToolNotFound } from "@/components/public-app/tool-not-found";

export default function ToolPathNotFound() {
  return <ToolNotFound />;
}
