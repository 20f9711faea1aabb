package dev.gatewaylab.monolith.login;

import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;

/**
 * The login form; Spring Security's form login handles {@code POST /login} and
 * {@code POST /logout}.
 */
@Controller
class LoginController {

	@GetMapping("/login")
	String login() {
		return "login";
	}

}
