// POST /signup/submit: the sign-up form's target (a route handler, so a throttled attempt gets 429).
import { signUpRequest } from '@/lib/web/sign-in';

export const POST = (req: Request) => signUpRequest(req);
