"""The HTTP face: the ASGI app, its routes and pages, the door every request passes (limits,
guard, language, who is signed in), and ``spieltisch serve``. The only room that imports
FastAPI and Starlette."""
